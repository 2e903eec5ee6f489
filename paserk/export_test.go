package paserk

// CheckPassword runs UnwrapPassword's checks of a password-wrapped PASERK,
// which derive no key, for the tests of package paserk_test.
func CheckPassword(s string) error {
	_, err := parsePassword(s)
	return err
}
