"""One module per command of the CLI; each loads the heavy libraries it needs when it runs."""
