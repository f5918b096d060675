import FileIO
import Foundation

/// Where an encrypted key's password comes from: the environment (CI),
/// else the terminal with echo off. Never a file of the project.
package enum PasswordSource {
    package static let variable = "MCPACK_KEY_PASSWORD"

    package struct Unavailable: Error, CustomStringConvertible {
        package var key: String
        package var message: String { "the key is encrypted and there is no terminal to ask its password on: set \(PasswordSource.variable)" }
        package var description: String { "\(key): \(message)" }
    }

    package static func password(for key: String) throws -> String {
        if let password = ProcessInfo.processInfo.environment[variable] { return password }
        guard let typed = Terminal.readSecret(prompt: "Password for \(key): ") else { throw Unavailable(key: key) }
        return typed
    }
}
