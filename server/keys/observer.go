package keys

// Observer is told of the Manager's rotations and store failures, for
// metrics (the metrics package implements it on Prometheus; this package
// depends on no metrics library). Its methods are called from Refresh
// (the loop's goroutine): they must be safe for concurrent use and quick.
type Observer interface {
	// Rotated: this instance stored a ring in which a new key signs in
	// place of the active one (the active key retired). The first key of
	// a first start is no rotation; a rotation another instance stored
	// is counted there, not here.
	Rotated()
	// StoreError: a call to the store failed (a lost compare-and-swap is
	// no failure); op is StoreOpKeys or StoreOpSwapKeys.
	StoreError(op string)
}

// The store operations Observer.StoreError names.
const (
	StoreOpKeys     = "keys"
	StoreOpSwapKeys = "swap_keys"
)

type nopObserver struct{}

func (nopObserver) Rotated()          {}
func (nopObserver) StoreError(string) {}
