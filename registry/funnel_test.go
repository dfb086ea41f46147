package registry

import (
	"errors"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestFunnelRegistered checks the funnel's registration: its defaults are
// `ptbatch run --model funnel`'s (dim 10, scale 3, automala), every
// explorer name is a choice of the explorer parameter that builds that
// explorer, and a dimension below 2 or an explorer number past the list is
// refused as a ParamError.
func TestFunnelRegistered(t *testing.T) {
	m, ok := Lookup(Funnel)
	if !ok {
		t.Fatal("funnel not registered")
	}
	def, err := New(Funnel, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := models.NewFunnel(10, 3, models.AutoMALA{})
	if got, w := def.(models.Described).Description(), want.(models.Described).Description(); got != w {
		t.Errorf("defaults build %q, want %q", got, w)
	}
	for i, name := range ExplorerNames {
		v, ok := m.Choice("explorer", name)
		if !ok || v != float64(i) {
			t.Errorf("Choice(explorer, %s) = %v, %v; want %d", name, v, ok, i)
		}
		got, err := New(Funnel, Values{"dim": 3, "scale": 2, "explorer": v}, 1)
		if err != nil {
			t.Fatal(err)
		}
		ex, _ := NewExplorer(name)
		w, _ := models.NewFunnel(3, 2, ex)
		if g, w := got.(models.Described).Description(), w.(models.Described).Description(); g != w {
			t.Errorf("explorer %s builds %q, want %q", name, g, w)
		}
	}
	if _, ok := m.Choice("explorer", "nuts"); ok {
		t.Error("an explorer that does not exist is a choice")
	}
	for _, v := range []Values{{"dim": 1}, {"explorer": float64(len(ExplorerNames))}, {"scale": 0}} {
		if _, err := New(Funnel, v, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%v: error %v, want a ParamError", v, err)
		}
	}
}
