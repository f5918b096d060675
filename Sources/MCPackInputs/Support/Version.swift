/// mcpack's own version, written into every bag it makes.
package enum MCPackVersion {
    package static let current = "0.1.0"
}
