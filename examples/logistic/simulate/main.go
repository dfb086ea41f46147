// Command simulate writes the simulated logistic-regression data set of
// examples/logistic to stdout as CSV: models.SimulateLogistic's
// observations (an intercept and d standard normal covariates x1 … xd,
// their true coefficients models.SimulatedLogisticCoefs), the covariates
// first and the response y last. Regenerate the shipped file with
//
//	go run ./examples/logistic/simulate > examples/logistic/data.csv
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ptbatch/ptbatch/models"
)

func main() {
	n := flag.Int("n", 200, "number of observations")
	d := flag.Int("d", 3, "number of covariates")
	seed := flag.Uint64("seed", 1, "seed of the simulation")
	flag.Parse()
	if *n < 1 || *d < 1 {
		fmt.Fprintln(os.Stderr, "simulate: -n and -d must be at least 1")
		os.Exit(2)
	}
	data := models.SimulateLogistic(*n, *d, *seed)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	p := data.NumCoefs()
	fmt.Fprintln(w, strings.Join(append(append([]string(nil), data.Names[1:]...), "y"), ","))
	for i, y := range data.Y {
		for _, x := range data.X[i*p+1 : (i+1)*p] {
			w.WriteString(strconv.FormatFloat(x, 'f', -1, 64) + ",")
		}
		fmt.Fprintln(w, y)
	}
}
