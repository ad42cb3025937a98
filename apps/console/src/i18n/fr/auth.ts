/** French messages: signing in and registering: passwords, mailed codes, single sign-on. */
export default {
  auth: {
    loginTitle: 'Connexion',
    loginSubtitle: 'Connectez-vous à votre compte Sharedown.',
    registerTitle: 'Créer votre compte',
    registerSubtitle: 'Hébergez des documents et partagez-les avec des liens que vous maîtrisez.',
    email: 'E-mail',
    password: 'Mot de passe',
    confirmPassword: 'Confirmer le mot de passe',
    login: 'Se connecter',
    logout: 'Se déconnecter',
    register: 'Créer un compte',
    createAccount: 'Créer le compte',
    noAccount: 'Pas encore de compte ?',
    haveAccount: 'Déjà inscrit ?',
    emailInvalid: 'Saisissez une adresse e-mail valide.',
    passwordRequired: 'Saisissez votre mot de passe.',
    passwordLength: 'Utilisez {min} à {max} caractères.',
    passwordMismatch: 'Les mots de passe ne correspondent pas.',
    sessionExpired: 'Votre session est terminée. Reconnectez-vous pour reprendre là où vous en étiez.',
  },
  email: {
    unverifiedLogin:
      "L'adresse e-mail de ce compte n'est pas encore vérifiée. Connectez-vous une fois avec un code envoyé à cette adresse ; votre mot de passe fonctionnera ensuite.",
    codeLink: 'Recevoir un code de connexion par e-mail',
    forgotLink: 'Mot de passe oublié ?',
    backToPassword: 'Se connecter avec le mot de passe',
    codeTitle: 'Se connecter avec un code par e-mail',
    codeHelp: 'Nous envoyons un code à 6 chiffres à votre adresse. Aucun mot de passe n’est nécessaire.',
    codeHelpNew:
      'Nous envoyons un code à 6 chiffres à votre adresse. Aucun mot de passe n’est nécessaire : la première connexion crée votre compte.',
    send: 'Envoyer le code',
    sending: 'Envoi…',
    sentTo: 'Si {email} peut en recevoir un, un code est en route. Il fonctionne une fois, dans les 10 minutes.',
    code: 'Code reçu par e-mail',
    codeRule: 'Saisissez les 6 chiffres de l’e-mail.',
    codeWrong: 'Le code est incorrect, a expiré ou a déjà servi. Demandez-en un nouveau.',
    signIn: 'Se connecter',
    resend: 'Envoyer un nouveau code',
    otherAddress: 'Utiliser une autre adresse',
    twoFactorHelp:
      'Ce compte demande aussi son second facteur : un code de votre application d’authentification, ou un code de récupération.',
    twoFactorCode: 'Code d’authentification ou code de récupération',
    resetTitle: 'Réinitialiser votre mot de passe',
    resetHelp:
      'Nous envoyons un code à votre adresse ; il vous permet de choisir un nouveau mot de passe. Toutes les sessions du compte sont déconnectées.',
    resetSubmit: 'Définir le mot de passe et se connecter',
    verifyTitle: 'Consultez vos e-mails',
    verifyHelp:
      'Nous avons envoyé un code à {email} si l’adresse peut être enregistrée. Saisissez-le pour terminer. Si un compte existe déjà pour cette adresse, son propriétaire a reçu un message à la place : connectez-vous, ou réinitialisez le mot de passe.',
    verifySubmit: 'Vérifier et se connecter',
    bannerTitle: 'Votre adresse e-mail n’est pas vérifiée',
    bannerHelp:
      'Les liens de partage réservés à des adresses e-mail précises ne s’ouvrent pour vous qu’une fois votre adresse vérifiée.',
    bannerSent: 'Nous avons envoyé un code à {email}.',
    verify: 'Vérifier',
    verified: 'Votre adresse e-mail est vérifiée.',
    allowlistWarning:
      'Cette instance ne peut pas vérifier les adresses e-mail (ni e-mail ni authentification unique configurés). Seuls les comptes dont l’adresse a été vérifiée auparavant peuvent ouvrir ce lien.',
  },
  sso: {
    or: 'ou',
    errorSso: 'L’authentification unique n’a pas abouti et vous n’êtes pas connecté. Réessayez, ou connectez-vous autrement.',
    errorUnverified:
      'Un compte avec cette adresse e-mail existe déjà, mais votre fournisseur d’identité ne garantit pas l’adresse : l’authentification unique ne peut donc pas ouvrir ce compte. Connectez-vous autrement, ou demandez au fournisseur de vérifier votre adresse.',
    passwordOff: 'Cette instance ne permet pas la connexion par mot de passe.',
    registerOff:
      'Les nouveaux comptes ne sont pas créés ici. Connectez-vous par authentification unique : la première connexion crée votre compte.',
    emailVerified: 'Vérifiée',
    emailUnverified: 'Non vérifiée',
    emailUnverifiedHelp:
      'Les liens de partage réservés à des adresses e-mail précises ne s’ouvrent pour ce compte qu’une fois son adresse vérifiée.',
    title: 'Authentification unique',
    help: 'Cette instance connecte les utilisateurs via un fournisseur OpenID. Son administrateur y enregistre cette adresse comme URI de redirection :',
    redirectUri: 'URI de redirection',
  },
};
