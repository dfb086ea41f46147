package models

// SimpsonRule is simpsonRule, for the external tests' quadratures of the
// oracles (models_test).
var SimpsonRule = simpsonRule
