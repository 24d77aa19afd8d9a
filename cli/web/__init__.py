"""`whybot serve`: the table companion as a local web page (a second face on facts/table.py)."""
