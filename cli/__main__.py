"""`python -m whybot.cli`: the same as the `whybot` command."""

from .app import main

main()
