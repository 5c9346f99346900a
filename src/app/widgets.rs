//! Small egui widgets that more than one panel draws.

use bevy_egui::egui;

/// A one-line field and its button: whether the button was pressed, or Enter in the
/// field.
pub fn open_field(ui: &mut egui::Ui, text: &mut String, hint: &str, button: &str) -> bool {
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(text)
                .hint_text(hint)
                .desired_width(150.0),
        );
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        ui.button(button).clicked() || entered
    })
    .inner
}
