"""`whybot serve`: the table companion as a local web page (a second face on the table API,
`facts/play/table.py`)."""
