package models

// galaxyVelocities are the velocities of the 82 galaxies in the Corona
// Borealis region, in thousands of km/s (9.172 … 34.279), in the order of
// the R package MASS (version 7.3-58.2, data set galaxies, which gives them
// in km/s). Data of Roeder (1990), "Density estimation with confidence sets
// exemplified by superclusters and voids in the galaxies", JASA
// 85(411):617-624; observations from Postman, Huchra and Geller (1986).
// These are published observations, embedded so that the galaxy benchmark
// runs without the project's data folder (/work/shared/data/galaxies.csv,
// column velocity_km_s, each value here being that value / 1000).
var galaxyVelocities = [...]float64{
	9.172, 9.350, 9.483, 9.558, 9.775, 10.227, 10.406, 16.084, 16.170, 18.419,
	18.552, 18.600, 18.927, 19.052, 19.070, 19.330, 19.343, 19.349, 19.440,
	19.473, 19.529, 19.541, 19.547, 19.663, 19.846, 19.856, 19.863, 19.914,
	19.918, 19.973, 19.989, 20.166, 20.175, 20.179, 20.196, 20.215, 20.221,
	20.415, 20.629, 20.795, 20.821, 20.846, 20.875, 20.986, 21.137, 21.492,
	21.701, 21.814, 21.921, 21.960, 22.185, 22.209, 22.242, 22.249, 22.314,
	22.374, 22.495, 22.746, 22.747, 22.888, 22.914, 23.206, 23.241, 23.263,
	23.484, 23.538, 23.542, 23.666, 23.706, 23.711, 24.129, 24.285, 24.289,
	24.366, 24.717, 24.990, 25.633, 26.690, 26.995, 32.065, 32.789, 34.279,
}
