import SwiftUI

@main
struct KioskApp: App {
    @StateObject private var model = KioskModel()

    var body: some Scene {
        WindowGroup {
            RootView(model: model)
                .task { await model.start() }
        }
    }
}
