"""The Textual skin: screens, widgets, styles and bindings. It never decides a rule."""
