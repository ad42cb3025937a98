/** Spanish messages: a share's agreement, the acceptances of it, and watermarks that name the reader. */
export default {
  agreementForm: {
    title: 'Acuerdo',
    toggle: 'Pedir a los visitantes que acepten un acuerdo',
    help: 'Condiciones o un acuerdo de confidencialidad, en Markdown. Los visitantes lo aceptan después de la contraseña y el inicio de sesión, antes de ver nada; la aceptación vale hasta que cambies el texto.',
    textLabel: 'Texto del acuerdo (Markdown)',
    placeholder: '## Confidencialidad\n\nAl abrir estos documentos aceptas mantenerlos en confidencialidad.',
    count: '{count} / {max} caracteres',
    requireName: 'El lector debe escribir su nombre',
    requireNameHelp:
      'Firma con un nombre de {min} a {max} caracteres; se guarda con la aceptación y puede aparecer en la marca de agua.',
    editHelp:
      'Cambiar el texto pide a cada lector que acepte de nuevo; desactivarlo quita el acuerdo. Las aceptaciones anteriores siguen en esta página.',
    errEmpty: 'Escribe el texto que aceptan los visitantes.',
    errLength: 'El acuerdo debe tener de {min} a {max} caracteres.',
    summary: 'Aceptan tu acuerdo antes de que se muestre nada.',
    summaryNamed: 'Aceptan tu acuerdo, firmando con su nombre, antes de que se muestre nada.',
  },
  readerWatermark: {
    placeholders:
      'Marcadores, rellenados en cada vista: {email} la dirección verificada del lector con sesión iniciada, {name} el nombre firmado en el acuerdo, {date} la fecha (UTC), {ip} la red del lector. Uno sin nada que decir se omite; el límite cuenta el texto tal como se escribe.',
    errControl: 'Los saltos de línea y otros caracteres de control no se pueden dibujar.',
  },
  acceptances: {
    title: 'Aceptaciones',
    hint: 'Quién aceptó el acuerdo, de la más reciente a la más antigua. Cada fila indica el texto aceptado por su huella.',
    hintRemoved: 'Este enlace ya no pide un acuerdo; las aceptaciones de sus textos anteriores se conservan.',
    exportCsv: 'Exportar CSV',
    empty: 'Nadie ha aceptado el acuerdo todavía.',
    at: 'Cuándo',
    name: 'Nombre',
    email: 'Correo',
    ipPrefix: 'Red',
    userAgent: 'Dispositivo',
    digest: 'Huella del acuerdo',
    earlierText: 'texto anterior',
    more: 'Cargar más',
  },
};
