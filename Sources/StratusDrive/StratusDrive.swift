// Placeholder until the Drive adapter lands; replaced by the real sources.
