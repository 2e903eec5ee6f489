package bench

import "os"

func quick() bool { return os.Getenv("LAB_QUICK") != "" }
