"""The command line: parses arguments and calls the other layers; owns no rule."""
