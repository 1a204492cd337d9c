library(testthat)
library(mlagreement)

test_check("mlagreement")
