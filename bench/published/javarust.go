package published

// JavaRustStudy is the Java-vs-Rust JWT sign+verify article: 1,000,000
// HS256 sign+verify iterations over 100,000 random e-mail addresses,
// claims {sub, iat, exp}; Rust (jsonwebtoken) on one thread, Java (jjwt)
// on one virtual thread per logical CPU.
type JavaRustStudy struct {
	Source Source
	// N is the iterations of a run.
	N int
	// JavaMs and RustMs are its five runs' total times, ms (lower is
	// better), in the order printed.
	JavaMs, RustMs []float64
	// JavaThreads is how many workers the Java program ran (one per
	// logical CPU of its machine); the Rust program ran one.
	JavaThreads, RustThreads int
	// JavaJWTPerS is the rate it quotes for Java.
	JavaJWTPerS float64
	// ArticleRustOverJava is the original article's claim it answers:
	// Rust 5.2 times faster than Java (both single-threaded, on a MacBook
	// Pro M2).
	ArticleRustOverJava float64
	// JavaOverRust is its own conclusion: Java 1.7 times faster than Rust.
	JavaOverRust float64
	Claims       []string
}

// JavaVsRust is the article "Simple Java JWT sign example" (Java vs Rust
// JWT sign+verify), with its Scenario Results table.
var JavaVsRust = JavaRustStudy{
	Source: Source{
		Title:   "Simple Java JWT sign example (Java vs Rust JWT sign+verify)",
		URL:     "https://github.com/pjgg/javaJwtSignExample (Rust: https://github.com/pjgg/rustJwtExample; answering https://medium.com/deno-the-complete-reference/java-vs-rust-how-faster-is-machine-code-compared-to-interpreted-code-for-jwt-sign-verify-fa6aeeabff58)",
		Machine: "AMD Ryzen 9 5950X (32 logical CPUs), 64 GiB, Fedora 40, Java 21 (Temurin), Rust 1.78.0",
		What:    "the total time of 1,000,000 HS256 sign+verify iterations (claims {sub, iat, exp} over 100,000 random addresses): jjwt with one virtual thread per logical CPU against jsonwebtoken on one thread, five runs each",
	},
	N:                   1000000,
	JavaMs:              []float64{5865, 5447, 5437, 5479, 5472},
	RustMs:              []float64{10011, 9996, 10042, 10097, 10021},
	JavaThreads:         32,
	RustThreads:         1,
	JavaJWTPerS:         170464,
	ArticleRustOverJava: 5.2,
	JavaOverRust:        1.7,
	Claims: []string{
		"the author [of the original article] claims that Rust performs 5.2 times better than Java",
		"Java is beating Rust in terms of JWTs per second (170,464 JWTs per second)",
		"we can conclude that Java is 1.7 times faster than Rust. Winner: JAVA",
	},
}
