/// mcpack's own version, written into every bag it makes.
public enum MCPackVersion {
    public static let current = "0.1.0"
}
