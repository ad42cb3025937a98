import type { ViewerMessages } from '../viewer-text.js';

/** The viewer's words in Spanish. */
export default {
  sender: { from: 'Compartido por {name} con Sharedown' },
  switcher: { label: 'Idioma' },
  refusals: {
    NOT_FOUND: {
      title: 'Enlace no encontrado',
      body: 'Este enlace compartido no existe. Comprueba que la dirección esté completa.',
    },
    REVOKED: {
      title: 'Enlace revocado',
      body: 'La persona que compartió este enlace lo ha revocado. El contenido ya no está disponible.',
    },
    EXPIRED: { title: 'Enlace caducado', body: 'Este enlace compartido ha caducado. El contenido ya no está disponible.' },
    CONSUMED: {
      title: 'Enlace agotado',
      body: 'Este enlace ha alcanzado su número de visitas. El contenido ya no está disponible.',
    },
    SESSION_TAKEN: {
      title: 'Acceso denegado',
      body: 'Este enlace solo se puede ver en la sesión del navegador que lo abrió primero.',
    },
    VISITOR_LIMIT: { title: 'No quedan visitas', body: 'Has agotado tus visitas de este enlace.' },
    USER_LIMIT: { title: 'No quedan visitas', body: 'Tu cuenta ha agotado sus visitas de este enlace.' },
  },
  states: {
    serverError: {
      title: 'Algo ha salido mal',
      body: 'El servidor no puede atender esta solicitud en este momento. Inténtalo de nuevo más tarde.',
    },
    serviceUnavailable: {
      title: 'No disponible temporalmente',
      body: 'El servicio se está recuperando. Vuelve a cargar la página dentro de unos segundos.',
    },
    trashed: {
      title: 'Documento eliminado',
      body: 'La persona que compartió este documento lo ha eliminado. El contenido ya no está disponible.',
    },
    quarantined: {
      title: 'Documento en cuarentena',
      body: 'El análisis antivirus ha considerado este documento inseguro. El contenido ya no está disponible.',
    },
    scanning: {
      title: 'Análisis de seguridad en curso',
      body: 'Este documento se acaba de subir y se está analizando. Actualiza la página en un momento.',
    },
    scanFailed: {
      title: 'Análisis de seguridad retrasado',
      body: 'El análisis de seguridad de este documento aún no ha terminado. Se reintenta automáticamente; vuelve más tarde.',
    },
    linkPreview: {
      title: 'Documento compartido',
      body: 'Este es un enlace a un documento compartido. Ábrelo en un navegador para verlo.',
    },
    foreignForm: { title: 'Solicitud rechazada', body: 'Los formularios deben enviarse desde una página de este sitio.' },
    agreementForged: {
      title: 'Solicitud rechazada',
      body: 'Este formulario de acuerdo no pertenece a este enlace ni a este navegador. Vuelva a abrir el enlace.',
    },
    submitOnSite: { title: 'Solicitud rechazada', body: 'Envíalo desde la página de inicio de sesión de este sitio.' },
    notListed: {
      title: 'Sin acceso',
      body: 'La cuenta con la que has iniciado sesión ({email}) no está en la lista de acceso de este enlace.',
    },
    tooManyAttempts: { title: 'Demasiados intentos', body: 'Demasiados intentos. Vuelve a intentarlo dentro de {duration}.' },
    passwordThrottled: {
      title: 'Demasiados intentos',
      body: 'Demasiadas contraseñas incorrectas. Vuelve a intentarlo dentro de {duration}.',
    },
    unavailable: {
      title: 'No disponible temporalmente',
      body: 'El documento se está volviendo a comprobar. Inténtalo de nuevo más tarde.',
    },
    frameExpired: {
      title: 'El enlace ya no es válido',
      body: 'Esta página solo se abre desde un enlace compartido. Vuelve a abrir el enlace compartido.',
    },
    loginExpired: {
      title: 'Inicio de sesión caducado',
      body: 'Los datos de inicio de sesión ya no son válidos. Vuelve a abrir el enlace.',
    },
    passwordLoginOff: {
      title: 'Inicio de sesión con contraseña no disponible',
      body: 'Este servicio no ofrece inicio de sesión con contraseña. Usa otra forma de iniciar sesión.',
    },
    emailCodesOff: {
      title: 'Página no encontrada',
      body: 'Este servicio no ofrece inicio de sesión con códigos por correo electrónico.',
    },
    reportThrottled: { title: 'Demasiadas denuncias', body: 'Has enviado demasiadas denuncias. Inténtalo de nuevo más tarde.' },
    reportReceived: { title: 'Denuncia recibida', body: 'Gracias, hemos registrado tu denuncia.' },
    failed: { title: 'No se pudo completar' },
  },
  password: {
    title: 'Se necesita contraseña',
    body: '«{file}» está protegido con contraseña. Introdúcela para verlo.',
    label: 'Contraseña',
    submit: 'Ver documento',
    wrong: 'La contraseña no es correcta.',
  },
  agreement: {
    title: 'Acepte el acuerdo',
    body: 'Antes de ver «{file}», lea y acepte el siguiente acuerdo.',
    bodyUnnamed: 'Antes de ver este documento, lea y acepte el siguiente acuerdo.',
    accept: 'He leído y acepto el acuerdo anterior',
    name: 'Su nombre',
    submit: 'Aceptar y continuar',
    mustAccept: 'Marque la casilla para aceptar el acuerdo.',
    nameLength: 'Escriba su nombre (de 1 a 100 caracteres).',
  },
  reveal: {
    title: 'Abrir el documento',
    ready: '«{file}» está listo.',
    oneTime: 'Este es un enlace de un solo uso: en cuanto lo abras dejará de funcionar y no se podrá volver a ver.',
    burn: 'Autodestrucción tras la lectura: lo que ya hayas desplazado se ocultará en este navegador.',
    submit: 'Ver documento',
  },
  signIn: {
    title: 'Se necesita iniciar sesión',
    body: 'Este enlace solo está disponible para usuarios con sesión iniciada. Inicia sesión primero.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Iniciar sesión y ver',
    console: 'Iniciar sesión en la consola',
    bounce: 'Iniciar sesión para ver',
    sso: 'Inicio de sesión único',
    missingFields: 'Introduce tu correo electrónico y tu contraseña.',
    wrongCredentials: 'El correo electrónico o la contraseña no son correctos.',
    ticketExpired: 'La verificación ha caducado. Vuelve a introducir tu correo electrónico y tu contraseña.',
  },
  twoFactor: {
    title: 'Verificación en dos pasos',
    body: 'Introduce el código de 6 dígitos de tu aplicación de autenticación o un código de recuperación.',
    code: 'Código',
    submit: 'Verificar y ver',
    codeShape: 'Introduce un código de 6 dígitos o un código de recuperación.',
    wrongCode: 'El código no es correcto o ya se ha usado.',
  },
  report: {
    link: 'Denunciar',
    title: 'Denunciar este enlace',
    body: 'Si «{file}» contiene material ilegal, que infringe derechos, fraudulento o malicioso, cuéntanos por qué.',
    bodyUnnamed: 'Si este documento contiene material ilegal, que infringe derechos, fraudulento o malicioso, cuéntanos por qué.',
    reason: 'Motivo',
    submit: 'Enviar denuncia',
    reasonLength: 'Describe el motivo en 3 a 1000 caracteres.',
  },
  emailCode: {
    offer: '¿Sin contraseña? Inicia sesión con un código por correo electrónico:',
    email: 'Correo electrónico',
    send: 'Enviar código',
    requestTitle: 'Iniciar sesión con un código',
    requestBody: 'Introduce tu dirección de correo electrónico y te enviaremos un código de 6 dígitos.',
    sendTo: 'Enviar un código a {email}',
    verifyTitle: 'Verificar tu dirección de correo',
    verifyBody: 'Enviaremos un código de 6 dígitos a {email}. Con él demuestras que la dirección es tuya.',
    entryTitle: 'Introduce el código',
    entryBody:
      'Si {email} se puede usar, te hemos enviado un código, válido durante {duration}. Revisa tu correo e introduce el código de 6 dígitos.',
    twoFactorBody:
      'Esta cuenta usa la verificación en dos pasos. Introduce el código de tu aplicación de autenticación o un código de recuperación.',
    code: 'Código',
    twoFactorCode: 'Código de verificación o de recuperación',
    verify: 'Verificar',
    signIn: 'Iniciar sesión y ver',
    invalidEmail: 'Introduce una dirección de correo electrónico válida.',
    codeShape: 'Introduce el código de 6 dígitos del correo.',
    wrongCode: 'El código no es correcto o ha caducado. Solicita uno nuevo.',
    usedCode: 'El código ya se ha usado. Solicita uno nuevo.',
  },
  unverified: {
    title: 'Dirección de correo sin verificar',
    body: 'Este enlace solo está abierto a direcciones de correo verificadas, y la dirección de la cuenta con la que has iniciado sesión ({email}) aún no está verificada.',
    emailLink: 'Verificar la dirección con un código por correo',
    sso: 'Inicia sesión mediante inicio de sesión único en una cuenta cuya dirección confirme tu proveedor de identidad y vuelve a abrir el enlace.',
    none: 'Este servicio no puede verificar direcciones de correo (no hay envío de correo ni inicio de sesión único configurados). Ponte en contacto con quien compartió el enlace.',
  },
  document: {
    noPrint: 'Este documento no se puede imprimir.',
    burnedAll: 'Has leído todo el documento; su contenido se ha destruido.',
    burnedSome: 'Las partes leídas se han destruido; continúa donde lo dejaste.',
  },
  collection: {
    label: 'Carpeta compartida',
    empty: 'Esta carpeta todavía no tiene documentos para mostrar.',
    top: 'Nivel superior',
    name: 'Nombre',
    kind: 'Tipo',
    size: 'Tamaño',
    changed: 'Último cambio',
    back: 'Volver a la carpeta',
    kinds: { HTML: 'HTML', MARKDOWN: 'Markdown', TEXT: 'Texto' },
  },
  admin: {
    ownerDisabled: {
      title: 'Cuenta desactivada',
      body: 'La cuenta que compartió este enlace ha sido desactivada por la administración de este servicio. El contenido no está disponible.',
    },
    accountDisabled: {
      title: 'Cuenta desactivada',
      body: 'Esta cuenta ha sido desactivada por la administración de este servicio y no puede iniciar sesión.',
    },
  },
  reports: {
    shareDisabled: {
      title: 'Enlace desactivado',
      body: 'La administración de este servicio desactivó este enlace tras una denuncia. No volverá a estar disponible y su contenido no se puede consultar.',
    },
  },
} satisfies ViewerMessages;
