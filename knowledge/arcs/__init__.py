"""SUPERCAT (Arcs) knowledge pack."""
