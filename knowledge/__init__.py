"""Knowledge packs: one folder of rule files per bot."""
