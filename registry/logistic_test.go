package registry

import (
	"errors"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// exampleData is the simulated data set shipped in examples/logistic
// (200 rows, covariates x1, x2, x3, response y).
const exampleData = "../examples/logistic/data.csv"

// TestLogisticFromRegistry builds the logistic model from its registry
// parameters, numbers and texts, on the example data: the coefficients
// are named from the header (with the intercept, or without it under
// no-intercept), and the model is a FromBatch model with the chosen
// explorer.
func TestLogisticFromRegistry(t *testing.T) {
	m, err := NewWithTexts(Logistic, Values{"prior-sd": 2}, Texts{"data": exampleData}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Observables(); len(got) != 4 || got[0] != "intercept" || got[3] != "x3" {
		t.Errorf("observables %v, want intercept, x1, x2, x3", got)
	}
	d := m.(models.Described).Description()
	m2, err := NewWithTexts(Logistic, Values{"no-intercept": 1, "explorer": 4}, Texts{"data": exampleData, "response": "y"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := m2.Observables(); len(got) != 3 || got[0] != "x1" || got[2] != "x3" {
		t.Errorf("no intercept: observables %v, want x1, x2, x3", got)
	}
	if got := m2.(models.Named).Name(); got != "logistic" {
		t.Errorf("name %q", got)
	}
	if d2 := m2.(models.Described).Description(); d2 == d {
		t.Errorf("two different models describe themselves alike: %s", d)
	}
	if _, err := NewWithTexts(Logistic, nil, Texts{"data": exampleData, "response": "x1"}, 1); !errors.Is(err, models.ErrData) {
		t.Errorf("response x1 (not 0/1): error %v, want a data error", err)
	}
}

// TestTextAndBoolParams checks the String and Bool kinds: a model without
// data is refused, a text given as a number or a number as a text is
// refused, and a Bool other than 0 or 1 is out of range.
func TestTextAndBoolParams(t *testing.T) {
	cases := []struct {
		name string
		v    Values
		tx   Texts
	}{
		{"no data", nil, nil},
		{"text as a number", Values{"data": 1}, nil},
		{"number as a text", nil, Texts{"data": exampleData, "prior-sd": "2"}},
		{"unknown text", nil, Texts{"data": exampleData, "file": "x"}},
		{"bool 2", Values{"no-intercept": 2}, Texts{"data": exampleData}},
	}
	for _, c := range cases {
		if _, err := NewWithTexts(Logistic, c.v, c.tx, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%s: error %v, want a ParamError", c.name, err)
		}
	}
	if _, err := New(Logistic, nil, 1); !errors.Is(err, ErrParam) {
		t.Errorf("New without data: error %v, want a ParamError", err)
	}
}
