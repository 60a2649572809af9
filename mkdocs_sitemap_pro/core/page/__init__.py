"""What a built page says and shows: its rendered HTML (``html``) and front matter
(``page_settings``), the files its source includes and which lines (``includes``,
``included_lines``), the API objects it renders (``api_lines``), the files a conversion
reads (``reads``), and its date by all of it (``shown``).
"""
