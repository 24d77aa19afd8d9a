"""The fact model: snapshots checked against a pack's fact schema, turned into situations."""
