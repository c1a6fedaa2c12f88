// A fixture: a source outside every layer folder.
