// Placeholder until the Drive mock lands; replaced by the real sources.
