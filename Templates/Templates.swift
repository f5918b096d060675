// SwiftPM ships resources only from a target, so Templates/ is one; this file
// is its only code and tells the kit where the templates were installed.
import Foundation

public enum Templates {
    /// The folder holding `bundle/` and `init/`, or nil if the resources were
    /// not installed beside the executable.
    public static var directory: URL? { Bundle.module.resourceURL }
}
