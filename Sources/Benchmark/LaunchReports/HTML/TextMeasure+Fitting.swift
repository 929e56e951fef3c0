extension TextMeasure {
    /// `text`, shortened with "…" when it is wider than `width` pixels; the
    /// whole text belongs in the hover title then.
    package static func fitted(_ text: String, width: Double, size: Double = 11, bold: Bool = false) -> String {
        guard self.width(text, size: size, bold: bold) > width else { return text }
        var characters = Array(text)
        while !characters.isEmpty, self.width(String(characters) + "…", size: size, bold: bold) > width {
            characters.removeLast()
        }
        return String(characters) + "…"
    }
}
