import LaunchSupport

/// A self-contained flame graph (one SVG file, no external scripts or fonts),
/// drawn by launchprof: the root at the bottom, each frame as wide as the
/// samples under it, colours fixed per module (the same module has the same
/// hue in every graph), the full name, module, source file and line (and
/// whether the call was inlined), samples and share in each frame's hover
/// title, and a Search button that highlights matching frames and tells
/// their share of all samples.
package enum FlameGraphSVG {
    static let width = 1200.0
    static let rowHeight = 17.0
    static let top = 46.0
    static let bottomMargin = 50.0

    package final class Node {
        package let frame: SymbolizedProfile.Frame?
        package var weight: UInt64 = 0
        var children: [SymbolizedProfile.Frame: Node] = [:]
        init(_ frame: SymbolizedProfile.Frame?) { self.frame = frame }

        package var depth: Int { 1 + (children.values.map(\.depth).max() ?? 0) }
        package var sortedChildren: [Node] { children.values.sorted { ($0.frame?.name ?? "") < ($1.frame?.name ?? "") } }
    }

    package static func tree(of profile: SymbolizedProfile) -> Node {
        let root = Node(nil)
        for stack in profile.stacks {
            root.weight += UInt64(stack.weight)
            var node = root
            for index in stack.frames {
                let frame = profile.frames[index]
                let child = node.children[frame] ?? Node(frame)
                node.children[frame] = child
                child.weight += UInt64(stack.weight)
                node = child
            }
        }
        return root
    }

    /// The flame graph of `profile` as a self-contained SVG document titled `title`.
    package static func svg(of profile: SymbolizedProfile, title: String) -> String {
        let root = tree(of: profile)
        let rows = root.depth
        let height = top + Double(rows) * rowHeight + bottomMargin
        let total = max(root.weight, 1)
        var body = ""
        var modules = Set<String>()
        func draw(_ node: Node, x: Double, level: Int) {
            let w = Double(node.weight) / Double(total) * (width - 20)
            guard w >= 0.3 else { return }
            let y = top + Double(rows - 1 - level) * rowHeight
            let name = node.frame?.name ?? "all"
            let module = node.frame?.module ?? ""
            modules.insert(module)
            let share = Double(node.weight) / Double(total) * 100
            let tip = "\(node.frame.map(label) ?? name) — \(node.weight) samples, \(format(share))%"
            body += "<g class=\"f\"><title>\(escape(tip))</title>"
            body +=
                "<rect x=\"\(format(10 + x))\" y=\"\(format(y))\" width=\"\(format(w))\" height=\"\(format(rowHeight - 1))\" fill=\"\(node.frame == nil ? "rgb(200,200,200)" : color(module: module, name: name))\" rx=\"2\"/>"
            body += "<text x=\"\(format(13 + x))\" y=\"\(format(y + 12))\">\(escape(fit(name, width: w)))</text></g>\n"
            var childX = x
            for child in node.sortedChildren {
                draw(child, x: childX, level: level + 1)
                childX += Double(child.weight) / Double(total) * (width - 20)
            }
        }
        draw(root, x: 0, level: 0)
        let legend = modules.filter { !$0.isEmpty }.sorted().prefix(12).enumerated().map { index, module in
            let x = 10 + Double(index % 6) * 195, y = height - 30 + Double(index / 6) * 14
            return
                "<rect x=\"\(format(x))\" y=\"\(format(y - 10))\" width=\"10\" height=\"10\" fill=\"\(color(module: module, name: ""))\"/><text x=\"\(format(x + 14))\" y=\"\(format(y))\" class=\"legend\">\(escape(fit(module, width: 175)))</text>"
        }.joined()
        let launches = profile.runCount > 1 ? " from \(profile.runCount) launches" : ""
        let subtitle =
            "\(profile.sampleCount) samples\(launches) at \(profile.sampling.rate) Hz, \(threadCount(profile)), weight \(root.weight)"
        return """
            <?xml version="1.0" standalone="no"?>
            <svg version="1.1" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" xmlns="http://www.w3.org/2000/svg" onload="init(evt)">
            <style>
            text { font-family: Verdana, "DejaVu Sans", sans-serif; font-size: 12px; fill: rgb(0,0,0); }
            .f:hover rect { stroke: black; stroke-width: 0.5; cursor: pointer; }
            .title { font-size: 17px; text-anchor: middle; }
            .legend { font-size: 11px; }
            #search { cursor: pointer; fill: rgb(60,60,160); }
            </style>
            <script type="text/ecmascript"><![CDATA[
            var details, matched, frames;
            function init(evt) {
              details = document.getElementById("details"); matched = document.getElementById("matched");
              frames = document.querySelectorAll("g.f");
              frames.forEach(function (g) {
                g.addEventListener("mouseover", function () { details.textContent = g.querySelector("title").textContent; });
                g.addEventListener("mouseout", function () { details.textContent = " "; });
              });
            }
            function search() {
              var term = prompt("Search frames (regular expression):", "");
              var re = null;
              try { re = term ? new RegExp(term) : null; } catch (e) { alert("Not a regular expression: " + e); return; }
              var total = 0, hit = 0, seen = [];
              frames.forEach(function (g) {
                var rect = g.querySelector("rect"), name = g.querySelector("title").textContent.split(" — ")[0];
                if (rect.dataset.fill === undefined) rect.dataset.fill = rect.getAttribute("fill");
                var yes = re !== null && re.test(name);
                rect.setAttribute("fill", yes ? "rgb(230,0,230)" : rect.dataset.fill);
              });
              if (re === null) { matched.textContent = " "; return; }
              // Share of samples: the widest matching frames, not counted twice when nested.
              var rects = []; frames.forEach(function (g) { var r = g.querySelector("rect"); if (r.getAttribute("fill") === "rgb(230,0,230)") rects.push([+r.getAttribute("x"), +r.getAttribute("width")]); });
              rects.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
              var end = -1;
              rects.forEach(function (r) { if (r[0] >= end) { hit += r[1]; end = r[0] + r[1]; } else if (r[0] + r[1] > end) { hit += r[0] + r[1] - end; end = r[0] + r[1]; } });
              matched.textContent = "Matched: " + (100 * hit / \(format(width - 20))).toFixed(1) + "%";
            }
            ]]></script>
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="rgb(250,250,245)"/>
            <text x="\(Int(width / 2))" y="20" class="title">\(escape(title))</text>
            <text x="\(Int(width / 2))" y="36" style="text-anchor: middle; font-size: 11px;">\(escape(subtitle))</text>
            <text id="search" x="\(Int(width - 70))" y="20" onclick="search()">Search</text>
            <text id="matched" x="\(Int(width - 130))" y="36"> </text>
            \(body)<text id="details" x="10" y="\(format(height - 38))"> </text>
            \(legend)
            </svg>

            """
    }

    /// A frame's hover title before its samples: "name (inlined) [module]
    /// file:line", the parts that are known.
    package static func label(_ frame: SymbolizedProfile.Frame) -> String {
        var text = frame.name
        if frame.inlined { text += " (inlined)" }
        if !frame.module.isEmpty { text += " [\(frame.module)]" }
        if let file = frame.file { text += " \(file)\(frame.line.map { ":\($0)" } ?? "")" }
        return text
    }

    static func threadCount(_ profile: SymbolizedProfile) -> String {
        let count = Set(profile.stacks.map { [UInt64($0.run), UInt64($0.threadID)] }).count
        return count == 1 ? "1 thread" : "\(count) threads"
    }

    /// A colour fixed by the module (hue) and varied a little by the name.
    package static func color(module: String, name: String) -> String {
        // One of 12 hues 30° apart, so modules stand apart; the high bits,
        // as FNV's low bits barely differ between similar names.
        let hue = (fnv(module) >> 40) % 12 * 30
        let shade = (fnv(name) >> 40) % 10
        return "hsl(\(hue),\(60 + shade)%,\(70 + shade)%)"
    }

    static func fnv(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// As much of `name` as fits `width` pixels at ~7 px per character.
    static func fit(_ name: String, width: Double) -> String {
        let room = Int((width - 6) / 7)
        if room < 3 { return "" }
        if name.count <= room { return name }
        return String(name.prefix(room - 2)) + ".."
    }

    /// The report's markup escaping: control characters (invalid in XML,
    /// even as references) become U+FFFD instead of making the SVG unreadable.
    static func escape(_ text: String) -> String { MarkupText.escape(text) }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
