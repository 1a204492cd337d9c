# Formatters shared by messages and print methods.

# Shows the first few offending entries, then how many more there are.
format_first <- function(x, n = 5L) {
  x <- as.character(x)
  shown <- utils::head(x, n)
  more <- length(x) - length(shown)
  out <- paste(shown, collapse = ", ")
  if (more > 0) out <- paste0(out, ", ... (", more, " more)")
  out
}

# A bad argument value for an error message: the number itself for a single
# number, else its type (and length for numeric vectors).
describe_value <- function(x) {
  if (is.numeric(x) && length(x) == 1L && !is.na(x)) {
    format(x)
  } else if (is.numeric(x) && length(x) > 1L) {
    paste0("a numeric vector of length ", length(x))
  } else {
    cli::format_inline("{.obj_type_friendly {x}}")
  }
}

# Two different numbers with the fewest significant digits (at least 3) that
# tell them apart.
format_distinct <- function(x, y) {
  digits <- 3L
  while (digits < 15L && format(x, digits = digits) == format(y, digits = digits)) digits <- digits + 1L
  c(format(x, digits = digits), format(y, digits = digits))
}

# Counts are doubles (64-bit sums); print them as whole numbers.
format_count <- function(x) format(x, big.mark = ",", scientific = FALSE, trim = TRUE)
count_noun <- function(n, noun) {
  plural <- if (grepl("y$", noun)) sub("y$", "ies", noun) else paste0(noun, "s")
  paste0(format_count(n), " ", if (n != 1) plural else noun)
}

format_percent <- function(x) {
  paste0(formatC(100 * x, format = "f", digits = 1), "%")
}

# A share as a percentage that never rounds a non-zero count to 0%.
format_percent_exact <- function(x) {
  if (x > 0 && x < 0.001) return("< 0.1%")
  if (x < 1 && x > 0.999) return("> 99.9%")
  format_percent(x)
}

# Fixed decimals, "NA" for missing values; + 0 after rounding turns -0.0000
# into 0.0000.
format_fixed <- function(x, digits = 4L) {
  ifelse(is.na(x), "NA", formatC(round(x, digits) + 0, format = "f", digits = digits))
}
