// The records the reader hands an app (Clause, ClauseCategory, PixelRect,
// PixelSize, BundleJSON.Info) are the schema's; re-exported so that
// `import MCPackReader` is all an app writes to name them.
@_exported import MCPackSchema
