"""The web and paper part of the Naval War Game (not its pure core)."""
