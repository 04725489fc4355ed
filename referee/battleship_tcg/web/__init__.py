"""The web and paper part of Battleship: The Tactical Combat Game (not its pure core)."""
