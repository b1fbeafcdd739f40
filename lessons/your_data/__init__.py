"""Your data: click points onto the plane, erase, undo, edit the table, download the CSV."""
