"""What a built page says and shows: its head and front matter, the files its source
includes (and which lines), the API objects it renders, and its date by all of it."""
