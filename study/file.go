package study

import "os"

// A study file is TOML: a [study] table (name, replicates, iterations,
// and optional seeds and chains), [[model]] entries (name and the
// model's parameters, as registered in package registry) and [[method]]
// entries (label and ptbatch run's settings). Keys are ptbatch run's
// flag names without the dashes; a list value makes a grid axis, and the
// plan is the cartesian product, model × method × seed.

// Load reads the study file path into a plan (ParseFile). An unreadable
// file is the *os.PathError of reading it.
func Load(path string) (*Plan, error) {
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, doc)
}

// ParseFile reads the study file doc, named file in errors, into a plan.
// It refuses what ptbatch run would refuse: an unknown table or key, a
// key that does not apply to its model or method, a bad value, and a
// setting that batch.Config.Validate refuses, each as a *FileError
// naming the file, the line and the key. Every model is built once with
// the first seed, and every method validated on the first model.
func ParseFile(file string, doc []byte) (*Plan, error) {
	tables, err := parseStudyTOML(file, doc)
	if err != nil {
		return nil, err
	}
	st, err := readStudyTable(file, tables)
	if err != nil {
		return nil, err
	}
	specs, err := readModels(file, tables, st.seeds[0])
	if err != nil {
		return nil, err
	}
	methods, from, err := readMethods(file, tables, st)
	if err != nil {
		return nil, err
	}
	if err := checkReferences(file, specs, methods, from, st.seeds[0]); err != nil {
		return nil, err
	}
	for i, meth := range methods {
		run := Run{Model: specs[0], Method: meth, Seed: st.seeds[0], Iterations: st.iterations, Replicates: st.replicates}
		m, err := run.NewModel()
		if err != nil {
			return nil, fileError(file, 0, "model %s: %v", run.Model.Name, err)
		}
		if _, err := run.Config(m); err != nil {
			return nil, configError(file, from[i], st, err)
		}
	}
	p := NewPlan(st.name, specs, methods, st.seeds, st.iterations, st.replicates)
	if _, err := p.Fingerprint(); err != nil {
		return nil, fileError(file, 0, "%v", err)
	}
	return &p, nil
}
