"""The Python programs the test runs inline: every kind of the wsbridge package and its lookups in one
program (all_kinds), and one resource or lookup with bad inputs (bad_input)."""
