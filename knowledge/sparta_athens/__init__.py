"""The Sparta/Athens solo bot."""
