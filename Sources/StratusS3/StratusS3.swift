// Placeholder until the S3 adapter lands; replaced by the real sources.
