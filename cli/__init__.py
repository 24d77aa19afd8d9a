"""The whybot command line."""
