package batch

import (
	"errors"
	"fmt"

	"github.com/ptbatch/ptbatch/models"
)

// modelPanic turns a value recovered from a worker's panic into the
// error of New, Step or Run: a *models.CallError (user code in a FromFuncs
// model, naming the function, the replicate and the chain) wrapped as it
// is, any other value as a model panic. nil stays nil.
func modelPanic(r any) error {
	if r == nil {
		return nil
	}
	var ce *models.CallError
	if err, ok := r.(error); ok && errors.As(err, &ce) {
		return fmt.Errorf("batch: user code failed: %w", err)
	}
	if err, ok := r.(error); ok {
		return fmt.Errorf("batch: the model panicked: %w", err)
	}
	return fmt.Errorf("batch: the model panicked: %v", r)
}
