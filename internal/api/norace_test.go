//go:build !race

package api

const raceSlack = 1
