import MCPackReader
import SwiftUI
import UIKit

/// The kiosk itself: the scan with its clause overlays, the category menu
/// that slides in from the side, and the detail panel that slides up when
/// a clause is tapped, as the original app had them.
struct KioskScreen: View {
    let bundle: KioskBundle
    let icons: [Int: UIImage]

    @State private var category: ClauseCategory?
    @State private var clause: Clause?
    @State private var menuShown = false

    // A little bounce, as the original detail panel had: the client liked
    // it better than a plain slide.
    private static let slide = Animation.spring(response: 0.45, dampingFraction: 0.78)

    var body: some View {
        KioskDocumentView(bundle: bundle, category: category) { tapped in
            // A tap beside every overlay closes the panel; a tap on another
            // clause shows that one.
            withAnimation(Self.slide) { clause = tapped }
        }
        .ignoresSafeArea()
        .overlay(alignment: .topLeading) { menu }
        .overlay(alignment: .bottom) { panel }
        // A kiosk has no use for the Home indicator drawn over the scan.
        .persistentSystemOverlays(.hidden)
    }

    @ViewBuilder private var menu: some View {
        if menuShown {
            // Dims the scan and takes the tap that closes the menu, so that
            // tap never reaches an overlay underneath.
            Color.black.opacity(0.25)
                .ignoresSafeArea()
                .onTapGesture { withAnimation(Self.slide) { menuShown = false } }
                .transition(.opacity)
            CategoryMenu(categories: bundle.categories, icons: icons, selected: category) { chosen in
                withAnimation(Self.slide) {
                    category = chosen
                    // The panel may describe a clause the filter now hides.
                    clause = nil
                    menuShown = false
                }
            }
            .transition(.move(edge: .leading))
        } else {
            Button {
                withAnimation(Self.slide) { menuShown = true }
            } label: {
                Image(systemName: "line.3.horizontal")
                    .font(.title2)
                    .padding(14)
                    .background(.regularMaterial, in: Circle())
            }
            .accessibilityLabel("Categories")
            .padding()
            .transition(.opacity)
        }
    }

    @ViewBuilder private var panel: some View {
        if let clause {
            ClausePanel(clause: clause) {
                withAnimation(Self.slide) { self.clause = nil }
            }
            .transition(.move(edge: .bottom))
        }
    }
}
