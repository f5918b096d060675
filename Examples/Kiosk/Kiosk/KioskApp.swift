import SwiftUI

// Main actor for the model's default value (KioskModel is @MainActor): the
// iOS 18 SDK's App is @MainActor, which infers this; the iOS 16 and 17
// SDKs' is not.
@main
@MainActor
struct KioskApp: App {
    @StateObject private var model = KioskModel()

    var body: some Scene {
        WindowGroup {
            RootView(model: model)
                .task { await model.start() }
        }
    }
}
