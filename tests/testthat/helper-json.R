# Random JSON texts for the parser tests (test-read-json.R). Each generator
# returns two texts of the same value: as written, and with the numbers
# under the key "id" in quotes, which is what the package's parser must give
# for id fields (jsonlite::parse_json() of the quoted text is the oracle).
json_ws <- function() sample(c("", "", "", " ", "\n", "\t", " \r\n  "), 1L)

json_random_number <- function() {
  int <- sample(c("0", "7", as.character(sample.int(1e6, 1L)), "2147483647", "2147483648",
                  "9007199254740993", "123456789012345678901", "99999999999999999999999"), 1L)
  frac <- sample(c("", "", "", ".0", ".5", paste0(".", sample.int(999, 1L)), ".000001"), 1L)
  exp <- sample(c("", "", "", "", "e5", "E-3", "e+20", "e0", "E400", "e-400"), 1L)
  paste0(sample(c("", "", "-"), 1L), int, frac, exp)
}

json_random_string <- function() {
  pieces <- c("a", "id", "text", " ", "\u00e9", "\u65e5\u672c", "\U0001F600", "\\n", '\\"',
              "\\\\", "\\/", "\\t", "\\b\\f\\r", "\\u00e9", "\\u65E5", "\\ud83d\\ude00",
              "\\u0041", "'", "{[,:]}")
  paste0('"', paste(sample(pieces, sample(0:5, 1L), replace = TRUE), collapse = ""), '"')
}

json_random <- function(depth = 0L) {
  kinds <- c("number", "string", "literal", "array", "object")
  kind <- sample(kinds, 1L, prob = if (depth >= 4L) c(3, 3, 1, 0, 0) else c(3, 3, 1, 2, 2))
  switch(kind,
    number = rep(json_random_number(), 2L),
    string = rep(json_random_string(), 2L),
    literal = rep(sample(c("true", "false", "null"), 1L), 2L),
    array = {
      parts <- lapply(seq_len(sample(0:4, 1L)), function(i) json_random(depth + 1L))
      json_join(parts, "[", "]", character())
    },
    object = {
      n <- sample(0:4, 1L)
      keys <- sample(c('"id"', '"id"', '"a"', '"text"', '"a"', '"\\u0069d"'), n, replace = TRUE)
      parts <- lapply(keys, function(k) {
        id <- k %in% c('"id"', '"\\u0069d"')
        v <- if (id && runif(1) < 0.7) rep(json_random_number(), 2L) else json_random(depth + 1L)
        if (id && grepl("^-?[0-9]", v[1])) v[2] <- paste0('"', v[1], '"')
        paste0(k, json_ws(), ":", json_ws(), v)
      })
      json_join(parts, "{", "}", keys)
    }
  )
}

json_join <- function(parts, open, close, keys) {
  vapply(1:2, function(k) {
    inner <- vapply(parts, function(p) paste0(json_ws(), p[k], json_ws()), "")
    paste0(open, json_ws(), paste(inner, collapse = ","), json_ws(), close)
  }, "")
}

# The package's parser on a string (the glue of src/glue-json-values.cpp).
parse_json_pkg <- function(txt, id_fields = character()) {
  res <- parse_json_text_cpp(enc2utf8(txt), id_fields)
  if (!is.null(res$error)) stop(res$error$kind, ": ", res$error$detail)
  res$value
}
