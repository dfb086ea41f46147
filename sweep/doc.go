// Package sweep is `ptbatch sweep` as a library preset over package study:
// a grid over dimension × chains × knots × seeds (the paper's Figure 5,
// "high-dimensional Gaussian", or any registered model with its
// defaults), its study.Plan of cell × replicate units, the rows of its
// cells.csv and summary.csv, its summary.json, and the merge of its
// shards' cells into one process's bytes.
//
// A Spec is the sweep's settings as data. Spec.Cells lists the grid,
// Spec.Plan makes it a study.Plan whose run k is cell k, so that its units
// (cell-major, replicate b of cell i is unit i·Replicates + b) shard with
// study.Plan.Range and run with study.Execute. Spec.Rows turns a finished
// piece's batch.Result into its cells.csv rows, SummaryRow a cell's
// values into its summary.csv row, and Summaries rebuilds every
// summary.csv row from the cells.csv rows of the shards, whose numbers
// are written exactly ('g', -1): a merge works on the shards' data and the
// Spec alone, and gives the bytes of one process.
//
// A Spec's grid is checked before anything runs, each refusal a typed
// error carrying the list and value concerned: CheckSize (at most
// MaxCells cells, *SizeError), CheckDim (chains and knots of a dimension,
// *ChainsError and *KnotsError), Configs (*ModelError) and Memory (the
// estimate a caller compares with its limit).
//
// A sweep's output directory (rundir) is library code too: Prepare checks
// what a resumed sweep would go on with (*ResumeError), OpenOut opens
// cells.csv and summary.csv for appending, Spec.Execute runs the units of
// a shard through study.Execute and Out.Piece appends each finished piece
// and records it in the manifest, Out.Finish writes summary.json, and
// Merge writes the merged output of a sweep's shards from their data.
//
// The linear-path bound of a Gaussian cell is the closed form 1/(2+2Λ)
// with Λ = √d·|μ1−μ0|/(σ√π) (LinearBound; Syed et al., ICML 2021,
// appendix proof of prop:badlinear, for d = 1).
package sweep
