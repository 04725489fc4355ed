"""Broadsides and Boarding Parties' web part: its pages, forms, script and paper."""
