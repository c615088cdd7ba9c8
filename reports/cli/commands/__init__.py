"""One module per family of ``rumsim`` commands; ``reports.cli`` registers them in the
order ``rumsim --help`` lists them."""
