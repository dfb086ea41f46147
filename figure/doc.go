// Package figure draws ptbatch's figures with gonum/plot and saves them
// atomically as PNG and SVG (rundir.WriteFile): a titled line plot with
// optional bands (Figure), a grid of aligned panels (SavePanels), and the
// trace and density figure of kept samples (SaveSamples). The run output
// (samples.png, lambda.png, index.png), sweep, reproduce and study draw
// with it.
package figure
