import type { RequestMessages } from '../request-text.js';

/** The document request pages' words in Spanish. */
export default {
  page: {
    askedBy: '{owner} te pide que subas documentos',
    received: 'Recibidos: {taken} de {max}',
    largest: 'Tamaño máximo por archivo: {size}',
    until: 'Abierta hasta: {date}',
    kinds: 'Puedes subir archivos de texto (.md, .markdown, .html, .htm, .txt, .text) en UTF-8.',
  },
  form: {
    file: 'Elegir un archivo',
    orPaste: 'O pegar texto',
    text: 'Texto',
    fileName: 'Nombre del archivo (por ejemplo notas.md)',
    name: 'Tu nombre',
    email: 'Tu correo electrónico',
    emailOptional: 'Tu correo electrónico (opcional)',
    message: 'Mensaje (opcional)',
    submit: 'Subir',
  },
  problems: {
    name: 'Indica tu nombre (100 caracteres como máximo).',
    email: 'Indica un correo electrónico válido.',
    message: 'El mensaje puede tener como máximo 2000 caracteres.',
    document: 'Elige un archivo, o pega texto y dale un nombre de archivo.',
    both: 'Elige un archivo o pega texto, pero no ambos.',
  },
  closed: { title: 'Solicitud cerrada', body: 'Quien pidió estos documentos ha cerrado la solicitud. Ya no admite subidas.' },
  expired: { title: 'Solicitud vencida', body: 'Esta solicitud de documentos ha pasado su fecha límite. Ya no admite subidas.' },
  full: { title: 'Solicitud completa', body: 'Esta solicitud ya recibió todos los documentos que pedía. Ya no admite subidas.' },
  receipt: {
    title: 'Comprobante de subida',
    intro: 'Guarda la dirección de esta página: solo muestra tu propia subida.',
    request: 'Solicitud',
    file: 'Archivo',
    size: 'Tamaño',
    at: 'Recibido el',
    status: 'Estado',
    checking: 'En revisión de seguridad',
    received: 'Recibido',
    infected: 'Rechazado por el antivirus',
    refresh: 'Recarga la página para ver el estado más reciente.',
  },
} satisfies RequestMessages;
