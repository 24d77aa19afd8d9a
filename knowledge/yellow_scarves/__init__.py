"""Conquest of the Three Kingdoms: the Yellow Scarves co-op bots."""
