"""`python -m pbem` runs the command line."""

from .cli import main

main()
