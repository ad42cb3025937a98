/** Spanish messages: reading by section on a share's analytics page. */
export default {
  shareSections: {
    document: 'En «{name}»',
    title: 'Lectura por secciones',
    help: 'Para cada sección (un encabezado h1–h3 inicia una): los lectores son las visitas que la tuvieron en pantalla al menos un segundo — donde las barras se acortan, los lectores se detienen; la mediana en segundos muestra dónde se demoran.',
    none: 'Todavía no se ha leído ninguna sección. Los documentos de texto no tienen; los visitantes que piden no ser rastreados no se miden.',
    heading: 'Sección',
    readers: 'Lectores',
    median: 'Tiempo mediano',
    seconds: '{seconds} s',
    untitled: 'Sección {index} (encabezado sin texto)',
    lingered: 'la más larga',
  },
};
