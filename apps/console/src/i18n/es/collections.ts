/** Spanish messages: sharing a folder as a collection, and the documents each visit opened. */
export default {
  collections: {
    search: 'Buscar por archivo, carpeta o enlace',
    fileOrFolder: 'Archivo o carpeta',
    label: 'colección',
    shareFolder: 'Compartir carpeta',
    shareFolderHelp:
      'Un enlace a todos los documentos limpios de esta carpeta y sus subcarpetas, también a los que se añadan después.',
    folderShares: 'Enlaces de la carpeta',
    explainer:
      'Los visitantes reciben un enlace a todos los documentos limpios de esta carpeta y sus subcarpetas: los añadidos después aparecen, los movidos fuera o enviados a la papelera desaparecen. Cada ajuste se aplica a la colección entera; abrirla es la visita.',
    noVersionPin: 'Una colección muestra siempre la última versión limpia de cada documento; no se puede fijar una versión.',
    summary: 'Ven los documentos limpios de la carpeta, también los que se añadan después.',
    backToFolder: 'Volver a la carpeta',
    openFolder: 'Abrir carpeta',
    filteredBy: 'Enlaces de la carpeta «{name}»',
    filteredByFolder: 'Enlaces de una carpeta',
    clearFilter: 'Mostrar todos los enlaces',
  },
  documentReads: {
    deleted: '(documento eliminado)',
    title: 'Documentos abiertos ({count})',
    line: '{time} · {depth} leído',
    completed: 'leído hasta el final',
  },
  documentReading: {
    title: 'Documentos leídos',
    help: '{visits, plural, one {Según la visita humana de este periodo, las mismas lecturas que el registro de visitas de abajo.} other {Según las # visitas humanas de este periodo, las mismas lecturas que el registro de visitas de abajo.}}',
    partial: 'Solo se cuentan las visitas más recientes del periodo.',
    document: 'Documento',
    readers: 'Lectores',
    opens: 'Veces abierto',
  },
};
