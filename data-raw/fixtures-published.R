# Published reference values the tests compare with, typed from their
# sources, one row per number. Run from the package root:
#   Rscript data-raw/fixtures-published.R
# Writes tests/testthat/fixtures/published.csv with columns
#   dataset, quantity, baseline, position: what the number is;
#   value: the number as published, a decimal or an exact fraction "a/b";
#   digits: decimals of a rounded value (empty for an exact one);
#   source: where it is printed.
# Tests read it with published() (helper-fixtures.R).

# Sources (the `source` column):
# - Menzner & Leidner (2026), section 3.7 and the reconstruction of its worked
#   example with exact fractions, ../shared/paper/worked_example_expected.md
#   (Tables 2 and 3 are derived there from the published S_i and T_j);
# - Krippendorff (2011), "Computing Krippendorff's alpha-reliability",
#   reliability data with missing values (4 coders x 12 units, values 1-5);
# - ConvAbuse (Cercas Curry et al. 2021) as documented in the project's data
#   README (shared/data/README.md): pooled prevalences, A_o, per-label kappa;
# - Fleiss (1971) psychiatric diagnoses, kappa as irr::kappam.fleiss() prints it.
paper <- "Menzner & Leidner 2026, sec. 3.7"
table2 <- "Menzner & Leidner 2026, reconstruction, Table 2 (k = 11)"
table3 <- "Menzner & Leidner 2026, reconstruction, Table 3"
recon <- "worked_example_expected.md, reconstructed array (not in the paper)"
kripp <- "Krippendorff 2011, reliability data with missing values"
convabuse <- "ConvAbuse, shared/data/README.md"
fleiss71 <- "Fleiss 1971 diagnoses, irr::kappam.fleiss()"

rows <- list()
add <- function(dataset, quantity, baseline, value, digits = NA, source) {
  rows[[length(rows) + 1]] <<- data.frame(
    dataset = dataset, quantity = quantity, baseline = baseline, position = seq_along(value),
    value = value, digits = digits, source = source
  )
}
b3 <- c("fleiss", "ac1", "pabak")

# The worked example, 31 labels.
for (b in b3) add("worked_example", "corpus_observed", b, "85/93", source = paper)
add("worked_example", "corpus_expected", b3, c("991/1116", "125/1116", "1/2"), source = paper)
add("worked_example", "chance_sum", "fleiss", "27.5278", 4, paper)
add("worked_example", "corpus_estimate", b3, c("29/125", "895/991", "77/93"), source = paper)
add("worked_example", "corpus_estimate", b3, c("0.2320", "0.9031", "0.8280"), 4, paper)
for (b in b3) add("worked_example", "corpus_floor_observed", b, "79/93", source = paper)
add("worked_example", "corpus_floor", b3, c("-43/125", "823/991", "65/93"), source = paper)
add("worked_example", "corpus_floor", b3, c("-0.3440", "0.8305", "0.6989"), 4, paper)
add("worked_example", "item_observed", "fleiss", c("1", "83/93", "85/93", "79/93"), source = paper)
add("worked_example", "item_observed", "fleiss", c("1", "0.8925", "0.9140", "0.8495"), 4, paper)
add("worked_example", "item_estimate", "fleiss", c("1", "1/25", "29/125", "-43/125"), source = recon)
add("worked_example", "prevalence", "", "7/93", source = paper)
add("worked_example", "augmented_kappa", "", "0.253", 3, paper)
add("worked_example", "am", "", "0.281", 3, paper)
add("worked_example", "boot_f1", "", "0.366", 3, paper)
add("worked_example", "masi", "", "0.3296", 4, recon)
add("worked_example", "masi_max", "", "0.393", 3, recon)  # 0.3929 rounded up
add("worked_example", "jaccard", "", "0.4264", 4, recon)

# The worked example after removing the 20 never-selected labels (k = 11).
for (b in b3) add("worked_example_k11", "corpus_observed", b, "25/33", source = table2)
add("worked_example_k11", "corpus_expected", b3, c("271/396", "125/396", "1/2"), source = table2)
add("worked_example_k11", "corpus_estimate", b3, c("29/125", "175/271", "17/33"), source = table2)
for (b in b3) add("worked_example_k11", "corpus_floor_observed", b, "19/33", source = table2)
add("worked_example_k11", "corpus_floor", b3, c("-43/125", "103/271", "5/33"), source = table2)

# Table 3: the 11 used labels.
add("worked_example", "label_prevalence", "", paste0(c(3, 2, 4, 3, 4, 3, 4, 2, 1, 1, 1), "/12"),
    source = table3)
add("worked_example", "label_observed", "",
    c("1", "5/6", "5/6", "1/2", "1/2", "2/3", "2/3", "5/6", "5/6", "5/6", "5/6"), source = table3)
add("worked_example", "label_estimate", "fleiss", c("1", "0.4", "0.625", "-0.3333", "-0.125", "0.1111",
    "0.25", "0.4", "-0.0909", "-0.0909", "-0.0909"), 4, table3)
add("worked_example", "label_estimate", "ac1", c("1", "0.7692", "0.7", "0.2", "0.1", "0.4667",
    "0.4", "0.7692", "0.8033", "0.8033", "0.8033"), 4, table3)
add("worked_example", "label_estimate", "pabak", c("1", "0.6667", "0.6667", "0", "0", "0.3333",
    "0.3333", "0.6667", "0.6667", "0.6667", "0.6667"), 4, table3)
add("worked_example", "positive_agreement", "", c("1", "0.5", "0.75", "0", "0.25", "0.3333",
    "0.5", "0.5", "0", "0", "0"), 4, table3)
add("worked_example", "negative_agreement", "", c("1", "0.9", "0.875", "0.6667", "0.625",
    "0.7778", "0.75", "0.9", "0.9091", "0.9091", "0.9091"), 4, table3)

# Krippendorff's reliability data (4 coders x 12 units, values 1-5).
add("krippendorff_2011", "alpha", c("nominal", "ordinal", "interval", "ratio"),
    c("0.743", "0.815", "0.849", "0.797"), 3, kripp)
add("krippendorff_2011", "alpha", "nominal", "0.7434210526", 10, kripp)
add("krippendorff_2011", "n_units", "", "11", source = kripp)
add("krippendorff_2011", "n_values", "", "40", source = kripp)

# ConvAbuse abuse types.
add("convabuse_types", "pooled_prevalence_mean", "", "0.014630", 6, convabuse)
add("convabuse_types", "pooled_prevalence", "",
    c("0.00105", "0.00661", "0.02643", "0.00218", "0.02151", "0.04432", "0.00032"), 5, convabuse)
add("convabuse_types", "corpus_observed", "fleiss", "0.987649", 6, convabuse)
add("convabuse_types", "label_estimate", "fleiss",
    c("0.2750", "0.5570", "0.3281", "0.7587", "0.6440", "0.6725", "-0.0003"), 4, convabuse)

# Fleiss (1971): 30 patients, 6 psychiatrists, 5 diagnoses.
add("diagnoses", "fleiss_kappa", "", "0.4302445", 7, fleiss71)

out <- do.call(rbind, rows)
utils::write.csv(out, "tests/testthat/fixtures/published.csv", row.names = FALSE, na = "")
